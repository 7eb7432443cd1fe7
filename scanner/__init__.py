"""octotable scanner."""

"""octotable scorer."""

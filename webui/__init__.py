"""octotable webui."""

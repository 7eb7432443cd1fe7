"""octotable calibration."""

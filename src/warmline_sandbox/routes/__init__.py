"""HTTP routes of the platform and prospecting operations, one module per family."""

"""Settings, paths and the API key."""

"""The outreach pipeline of the sandbox: leads, signal scans, recommendations, activity log."""

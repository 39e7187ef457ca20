"""The outreach pipeline of the sandbox: leads, signal scans, recommendations, activity log.

`router` serves every outreach operation, `SCHEMA` creates the tables (and
`add_missing_columns` upgrades an older database's), `seed_outreach`
fills a new database with demo leads. Importing the package registers the finishers of
the signal-scan and recommendation-generation jobs.
"""

from warmline_sandbox.outreach.routes import router
from warmline_sandbox.outreach.seed import seed_outreach
from warmline_sandbox.outreach.tables import SCHEMA, add_missing_columns

__all__ = ["SCHEMA", "add_missing_columns", "router", "seed_outreach"]

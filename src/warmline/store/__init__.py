"""The local SQLite cache: schema, migrations, queries and the action outbox."""

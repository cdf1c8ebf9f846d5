"""Penalties: infraction catalogs, escalation proposals, record replay and exports (pure)."""

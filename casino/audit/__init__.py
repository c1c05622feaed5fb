"""The audit trail (an app of its own: every other app records into it)."""

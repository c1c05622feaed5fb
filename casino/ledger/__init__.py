"""The ledger and the audit trail: every money movement as balanced, append-only entries
(``services.ledger_post``), the drop, every write's audit event (``audit.audit_record``),
and ``manage.py audit_ledger``, which checks both end to end."""

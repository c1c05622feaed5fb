"""Management's side: shift reports (built by Celery), their files, and the dashboard.

- ``figures``: every figure of a shift, summed by the database.
- ``services``: requesting, building (idempotent, resumable) and e-mailing a report.
- ``outputs`` and ``charts``: CSV, XLSX, PDF and the SVG charts, from a report's figures.
- ``selectors``: what the pages read (reports a user may see, the dashboard's sums).
- ``views`` and ``urls``: ``/reports/``, managers and auditors of the venue only.
"""

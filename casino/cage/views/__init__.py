"""The cage's screens: the cage window (``cage``), a table's cash (``cash``), a table's
slips (``slips``) and the cash records report (``reports``)."""

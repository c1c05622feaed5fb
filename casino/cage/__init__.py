"""The cage: fill and credit slips between the cage and the tables, cash bought in and
cashed out at the tables with the records and thresholds the law asks for, and the cage's
screens, reports and API."""

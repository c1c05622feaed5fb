"""PostgreSQL as Django's backend, a kept connection checked without a round trip
(``base.DatabaseWrapper``): ``ENGINE = "casino.kernel.postgresql"``."""

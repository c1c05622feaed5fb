"""The schema file the tests' databases are made from (tests/schema.py) is made from today's
migrations."""

from tests.schema import SCHEMA_FILE, file_digest, migrations_digest


def test_the_schema_file_is_made_from_todays_migrations():
    assert file_digest() == migrations_digest(), (
        f"a migration was added or changed since {SCHEMA_FILE.name} was made (this run's "
        "databases were migrated the long way): run `make schema` and commit the file"
    )

"""The schema file the tests' databases are made from (tests/schema.py) holds what ``migrate``
makes: the drills' cluster is migrated the long way; its dump and the file, each loaded into a
database of its own beside it, dump to the same SQL and hold the same rows of the tables
``migrate`` fills. (Each is compared once loaded: PostgreSQL writes some expressions back in
another, equivalent, form than the migrations wrote them.)"""

from tests.schema import dump_schema, load_schema_file, load_sql

#: The rows ``migrate`` writes that the tests rely on, in a stable order.
FILLED_BY_MIGRATE = (
    "SELECT app, name FROM django_migrations ORDER BY app, name",
    "SELECT id, app_label, model FROM django_content_type ORDER BY id",
    "SELECT id, content_type_id, codename FROM auth_permission ORDER BY id",
    "SELECT name, task FROM django_celery_beat_periodictask ORDER BY name",
)


def test_the_schema_file_is_what_migrate_makes(clusters):
    cluster = clusters("schema", migrated=True)
    cluster.start()
    server = {"HOST": "127.0.0.1", "PORT": cluster.port, "USER": "postgres"}
    cluster.sql("CREATE DATABASE from_file")
    load_schema_file(server, "from_file")
    cluster.sql("CREATE DATABASE from_migrate")
    load_sql(server, "from_migrate", dump_schema(server, "casino"))

    assert dump_schema(server, "from_file", schema_only=True) == dump_schema(
        server, "from_migrate", schema_only=True
    )
    for query in FILLED_BY_MIGRATE:
        migrated = cluster.sql(query, dbname="casino")
        assert migrated, query
        assert cluster.sql(query, dbname="from_file") == migrated, query

"""An operator installs from deploy/ and docs/OPERATIONS.md alone: every variable the settings
read is in the environment template (and in the guide's "Environment" table), and every file
of deploy/ is in the guide's table of what goes where."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "OPERATIONS.md").read_text()

#: What the settings read from the environment: os.environ.get("X"), os.environ["X"],
#: env_bool("X"), env_list("X").
READ = re.compile(r"""(?:environ\.get\(|environ\[|env_bool\(|env_list\()\s*["']([A-Z0-9_]+)["']""")


#: Files that read the environment: the settings, and gunicorn's own configuration.
READERS = (ROOT / "casino" / "settings.py", ROOT / "deploy" / "gunicorn.conf.py")


def variables_read() -> set[str]:
    return set().union(*(READ.findall(path.read_text()) for path in READERS))


def test_the_settings_read_variables_at_all():
    # the pattern still finds what is read (a guard for the tests below)
    assert {"DATABASE_URL", "SECRET_KEY", "GUNICORN_BIND"} <= variables_read()


def test_the_environment_template_names_every_variable_read():
    template = (ROOT / "deploy" / "casino.env.example").read_text()
    named = set(re.findall(r"\b([A-Z][A-Z0-9_]+)=", template))
    assert variables_read() - named == set()


def test_the_guide_describes_every_variable_read():
    environment = GUIDE[GUIDE.index("## Environment") :]
    first_cells = re.findall(r"^\| (.+?) \|", environment, flags=re.MULTILINE)
    described = {name for cell in first_cells for name in re.findall(r"`([A-Z0-9_]+)`", cell)}
    assert variables_read() - described == set()


def test_the_guide_says_where_each_file_of_deploy_goes():
    table = GUIDE[GUIDE.index("### The files in `deploy/`") :]
    first_cells = re.findall(r"^\| (.+?) \|", table, flags=re.MULTILINE)
    listed = {name for cell in first_cells for name in re.findall(r"`([^`]+)`", cell)}
    deploy = ROOT / "deploy"
    # prod-check and its scripts are run from the code, not installed
    files = {
        path.relative_to(deploy).as_posix()
        for path in deploy.rglob("*")
        if path.is_file()
        and path.name != "prod-check.sh"
        and "prod_check" not in path.parts
        and "__pycache__" not in path.parts
    }
    assert "backup/restore-pitr.sh" in files
    assert files - listed == set()

"""The smoke journey of ``make prod-check``, through nginx over HTTPS only.

``smoke.py --base https://localhost:8443 --plain http://localhost:8080 --ca cert.pem
--seed seed.json --web http://127.0.0.1:8001``: logs in (the second factor's codes computed
here from the seed's keys, as an authenticator app does), opens a table, deals and settles
a round, fills the table through the cage, has the worker build the shift's report and
downloads it, and checks the headers, the redirect to HTTPS, /healthz, /readyz and that
/metrics is not served to the outside. One PASS or FAIL line per step; exit status 1 on
the first FAIL.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import struct
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx

NIU_9 = "KS QS 5H 4H TC"
NIU_8 = "JS QH JD AC 7H"


class Failed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def totp(key_hex: str, *, at: float | None = None, step: int = 30, digits: int = 6) -> str:
    """RFC 6238: the code an authenticator app shows for ``key_hex`` now."""
    counter = int((time.time() if at is None else at) // step)
    digest = hmac.new(bytes.fromhex(key_hex), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{number % 10**digits:0{digits}d}"


class Journey:
    def __init__(self, args: argparse.Namespace) -> None:
        self.base = args.base.rstrip("/")
        self.plain = args.plain.rstrip("/")
        self.web = args.web.rstrip("/")
        self.seed = json.loads(Path(args.seed).read_text())
        self.verify = args.ca
        self.tokens: dict[str, str] = {}
        self.ids: dict[str, Any] = {}
        self.failed = False

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.base, verify=self.verify, timeout=30, **kwargs)

    def step(self, name: str, run: Callable[[], str | None]) -> None:
        if self.failed:
            return
        try:
            said = run()
        except (Failed, httpx.HTTPError, KeyError, ValueError) as error:
            print(f"FAIL  {name}: {error}", flush=True)
            self.failed = True
            return
        print(f"PASS  {name}" + (f" ({said})" if said else ""), flush=True)

    def login_request(self, client: httpx.Client, method: str, path: str, **kwargs: Any):
        """A request to a login URL, waiting as a person would when nginx's limit_req (10 a
        minute, a burst of 5) answers 429: the journey's own logins come close to it."""
        for _ in range(4):
            answer = client.request(method, path, **kwargs)
            if answer.status_code != 429:
                return answer
            time.sleep(7)
        return answer

    def api(
        self, who: str, method: str, path: str, body: Any = None, headers: dict | None = None
    ) -> Any:
        with self.client() as client:
            answer = client.request(
                method,
                f"/api/v1/{path}",
                json=body,
                headers={"Authorization": f"Token {self.tokens[who]}", **(headers or {})},
            )
        check(
            answer.status_code < 300, f"{method} {path}: {answer.status_code} {answer.text[:300]}"
        )
        return answer.json()

    def credentials(self, who: str) -> dict[str, str]:
        return {"username": self.seed["usernames"][who], "password": self.seed["password"]}

    # the steps

    def health(self) -> str:
        with self.client() as client:
            answer = client.get("/healthz")
        check(answer.status_code == 200, f"/healthz {answer.status_code}")
        return "200"

    def plain_redirects(self) -> str:
        answer = httpx.get(f"{self.plain}/accounts/login/", timeout=10)
        location = answer.headers.get("location", "")
        check(answer.status_code == 301, f"plain HTTP answered {answer.status_code}")
        check(location.startswith("https://"), f"redirected to {location!r}")
        return f"301 to {location}"

    def headers(self) -> str:
        with self.client() as client:
            page = client.get("/accounts/login/")
        check(page.status_code == 200, f"login page {page.status_code}")
        self.page = page.text
        got = page.headers
        csp = got.get("content-security-policy", "")
        directives = dict(
            [*part.strip().split(" ", 1), ""][:2] for part in csp.split(";") if part.strip()
        )
        check(directives.get("default-src") == "'self'", f"CSP {csp!r}")
        check("unsafe-inline" not in directives.get("script-src", "unsafe-inline"), f"CSP {csp!r}")
        hsts = got.get("strict-transport-security", "")
        check(
            "max-age=" in hsts and int(hsts.split("max-age=")[1].split(";")[0]) >= 31536000,
            f"HSTS {hsts!r}",
        )
        check(got.get("x-content-type-options") == "nosniff", "no X-Content-Type-Options")
        check(
            got.get("referrer-policy") == "same-origin",
            f"Referrer-Policy {got.get('referrer-policy')!r}",
        )
        check(got.get("x-frame-options") == "DENY", "X-Frame-Options")
        check("permissions-policy" in got, "nginx's Permissions-Policy")
        return "CSP, HSTS, nosniff, Referrer-Policy, X-Frame-Options, Permissions-Policy"

    def static(self) -> str:
        with self.client() as client:
            css = [part.split('"')[0] for part in self.page.split('"/static/')[1:]]
            check(bool(css), "the login page links no static file")
            answer = client.get(f"/static/{css[0]}")
        check(answer.status_code == 200, f"/static/{css[0]} {answer.status_code}")
        check("immutable" in answer.headers.get("cache-control", ""), "nginx's Cache-Control")
        return f"/static/{css[0]} from nginx"

    def metrics_hidden(self) -> str:
        with self.client() as client:
            outside = client.get("/metrics")
        check(outside.status_code == 404, f"/metrics through nginx {outside.status_code}")
        inside = httpx.get(f"{self.web}/metrics", timeout=10)
        check(inside.status_code == 200, f"/metrics on gunicorn's port {inside.status_code}")
        check("casino_http_requests_total" in inside.text, "no request counter in /metrics")
        return "404 outside, 200 on gunicorn's own port"

    def log_in(self) -> str:
        keys = self.seed["totp_keys"]
        for who in ("dealer", "supervisor2", "cashier", "manager"):
            body = {**self.credentials(who), "device": f"prod-check-{who}"}
            if who in keys:
                body["code"] = totp(keys[who])
            with self.client() as client:
                answer = self.login_request(client, "POST", "/api/v1/auth/login/", json=body)
            check(answer.status_code == 201, f"{who}: {answer.status_code} {answer.text[:200]}")
            self.tokens[who] = answer.json()["token"]
        return "dealer, supervisor, cashier and manager (the last two with their TOTP code)"

    def open_table(self) -> str:
        opened = self.api(
            "dealer",
            "POST",
            "sessions/",
            {
                "table": self.seed["table"],
                "opening_chips": {"1000000": 150},
                "confirmed_by": self.credentials("supervisor"),
            },
        )
        self.ids["session"], self.ids["shift"] = opened["id"], opened["shift"]["id"]
        return f"session {opened['id']}"

    def round(self) -> str:
        dealt = self.api(
            "dealer",
            "POST",
            "rounds/",
            {
                "session": self.ids["session"],
                "dealer_cards": NIU_8,
                "boxes": [{"position": 1, "cards": NIU_9, "bets": {"single": "1000000"}}],
            },
        )
        settled = self.api(
            "dealer",
            "POST",
            f"rounds/{dealt['id']}/settle/",
            headers={"Idempotency-Key": "prod-check-1"},
        )
        check(settled.get("status") == "settled", f"round {settled.get('status')}")
        ledger = self.api("dealer", "GET", f"rounds/{dealt['id']}/ledger/")
        amounts = [Decimal(entry["amount"]) for entry in ledger["entries"]]
        check(len(amounts) >= 2 and sum(amounts) == 0, f"ledger {amounts}")
        return f"round {dealt['id']} settled; its {len(amounts)} ledger entries sum to 0"

    def fill(self) -> str:
        asked = self.api(
            "dealer",
            "POST",
            "slips/",
            {"session": self.ids["session"], "kind": "fill", "chips": {"1000000": 5}},
        )
        slip = asked["id"]
        self.api("cashier", "POST", f"slips/{slip}/issue/", {"runner": "Lan"})
        self.api("dealer", "POST", f"slips/{slip}/confirm-dealer/")
        posted = self.api("supervisor2", "POST", f"slips/{slip}/confirm-supervisor/")
        check(posted["status"] == "verified", f"slip {posted['status']}")
        return f"slip {slip} verified"

    def report(self) -> str:
        asked = self.api("manager", "POST", f"shifts/{self.ids['shift']}/report/")
        report = asked["id"]
        deadline = time.monotonic() + 120
        while True:
            built = self.api("manager", "GET", f"shift-reports/{report}/")
            if built["status"] in ("done", "failed") or time.monotonic() > deadline:
                break
            time.sleep(1)
        check(built["status"] == "done", f"report {built['status']} {built['error']}")
        self.ids["report"] = report
        return f"report {report} built by the worker"

    def download(self) -> str:
        """The auditor logs in on the web page (password, then the code) and downloads."""
        jar: dict[str, str] = {}
        lines: list[str] = []

        def keep(answer: httpx.Response) -> httpx.Response:
            # The cookies by hand: the standard jar files "localhost" ones apart.
            for line in answer.headers.get_list("set-cookie"):
                lines.append(line)
                name, _eq, rest = line.partition("=")
                jar[name] = rest.split(";")[0]
            return answer

        def cookie() -> dict[str, str]:
            return {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}

        with self.client(follow_redirects=False) as client:
            keep(self.login_request(client, "GET", "/accounts/login/"))
            sent = {"Origin": self.base, "Referer": f"{self.base}/accounts/login/"}
            answer = keep(
                self.login_request(
                    client,
                    "POST",
                    "/accounts/login/",
                    data={**self.credentials("auditor"), "csrfmiddlewaretoken": jar["csrftoken"]},
                    headers={**sent, **cookie()},
                )
            )
            check(answer.status_code == 302, f"password: {answer.status_code}")
            session = [
                c for c in answer.headers.get_list("set-cookie") if c.startswith("sessionid=")
            ]
            check(
                bool(session)
                and "secure" in session[0].lower()
                and "httponly" in session[0].lower(),
                f"session cookie {session}",
            )
            verify = keep(client.get("/accounts/verify/", headers=cookie()))
            check(verify.status_code == 200, f"verify page {verify.status_code}")
            answer = keep(
                client.post(
                    "/accounts/verify/",
                    data={
                        "code": totp(self.seed["totp_keys"]["auditor"]),
                        "csrfmiddlewaretoken": jar["csrftoken"],
                    },
                    headers={**sent, "Referer": f"{self.base}/accounts/verify/", **cookie()},
                )
            )
            check(answer.status_code == 302, f"code: {answer.status_code}")
            files = f"/reports/shift/{self.ids['report']}/files"
            got = client.get(f"{files}/shift-report.csv", headers=cookie())
            check(got.status_code == 200, f"CSV {got.status_code}")
            check("attachment" in got.headers.get("content-disposition", ""), "not an attachment")
            check(len(got.content) > 100, f"CSV of {len(got.content)} bytes")
            check({"csrftoken", "sessionid"} <= set(jar), f"cookies {sorted(jar)}")
            check(all("; secure" in line.lower() for line in lines), f"not all Secure: {lines}")
            pdf = client.get(f"{files}/shift-report.pdf", headers=cookie())
            check(pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), "PDF")
        return f"CSV {len(got.content)} bytes, PDF {len(pdf.content)} bytes; secure cookies"

    def login_limited(self) -> str:
        """nginx's limit_req on the login URLs: quick attempts past the burst get a 429."""
        with self.client() as client:
            for attempt in range(1, 21):
                answer = client.get("/accounts/login/")
                if answer.status_code == 429:
                    return f"429 at attempt {attempt}"
        raise Failed("20 quick requests to /accounts/login/ and no 429")

    def ready(self) -> str:
        deadline = time.monotonic() + 120
        with self.client() as client:
            while True:
                answer = client.get("/readyz")
                if answer.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(2)
        check(answer.status_code == 200, f"/readyz {answer.status_code} {answer.text[:300]}")
        return "200: database, cache, worker and beat heartbeats"

    def run(self) -> int:
        self.step("/healthz through nginx", self.health)
        self.step("plain HTTP redirects to HTTPS", self.plain_redirects)
        self.step("security headers and secure cookies", self.headers)
        self.step("static files served by nginx", self.static)
        self.step("/metrics not served to the outside", self.metrics_hidden)
        self.step("/readyz once the worker and beat have beaten", self.ready)
        self.step("log in through the API", self.log_in)
        self.step("open a table", self.open_table)
        self.step("deal and settle a round", self.round)
        self.step("a fill through the cage", self.fill)
        self.step("the shift report built by the worker", self.report)
        self.step("log in on the web with the second factor, download the report", self.download)
        self.step("nginx limits the login URLs", self.login_limited)
        return 1 if self.failed else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("--base", "--plain", "--web", "--ca", "--seed"):
        parser.add_argument(name, required=True)
    return Journey(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())

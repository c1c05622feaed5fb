from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import set_language

from casino.api import docs
from casino.favicon import favicon
from casino.ops import views as ops
from casino.staff import views as staff_views
from casino.staff.policy import Capability, declare
from casino.staff.throttling import LockoutAuthenticationForm

# A body Django will not read (too large, too many fields) answers in the API's error
# shape under /api/ and with a page that says so elsewhere, not a bare "Bad Request".
handler400 = "casino.api.bodies.bad_request"

admin.site.site_header = "Casino back office"
admin.site.site_title = "Casino back office"
admin.site.index_title = "Venues, rulesets and the floor"
# Every admin page answers to the model permissions of the roles held (casino/staff/roles.py).
declare(Capability.ADMIN)(admin.site)
public = declare(Capability.PUBLIC)

urlpatterns = [
    path("", public(RedirectView.as_view(url="/console/", permanent=False))),
    path("favicon.ico", public(favicon), name="favicon"),
    path("console/", include("casino.console_urls")),
    path("reports/", include("casino.reports.urls")),
    path("group/", include("casino.group.urls")),
    path("compliance/", include("casino.compliance.urls")),
    path("i18n/setlang/", public(set_language), name="set_language"),
    path(
        "accounts/login/",
        public(
            auth_views.LoginView.as_view(
                redirect_authenticated_user=True, authentication_form=LockoutAuthenticationForm
            )
        ),
        name="login",
    ),
    path(
        "accounts/logout/",
        public(auth_views.LogoutView.as_view(next_page="login")),
        name="logout",
    ),
    # The second factor, after the password (casino/staff/second_factor.py).
    path("accounts/verify/", staff_views.second_factor_check, name="second-factor-verify"),
    path("accounts/enrol/", staff_views.second_factor_enrol, name="second-factor-enrol"),
    path(
        "accounts/recovery-codes/",
        staff_views.second_factor_recovery_codes,
        name="second-factor-recovery-codes",
    ),
    path("admin/", admin.site.urls),
    path("api/schema/", docs.SchemaView.as_view(), name="schema"),
    path("api/docs/", docs.swagger, name="api-docs"),
    path("api/v1/", include("casino.api.urls")),
    # The load balancer's and monitoring's (casino/ops/views.py): no login; /metrics by address.
    path("healthz", public(ops.healthz), name="healthz"),
    path("readyz", public(ops.readyz), name="readyz"),
    path("metrics", public(ops.metrics), name="metrics"),
]

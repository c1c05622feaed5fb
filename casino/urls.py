from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from casino.api import docs
from casino.favicon import favicon
from casino.throttling import LockoutAuthenticationForm

# A body Django will not read (too large, too many fields) answers in the API's error
# shape under /api/ and with a page that says so elsewhere, not a bare "Bad Request".
handler400 = "casino.api.bodies.bad_request"

admin.site.site_header = "Casino back office"
admin.site.site_title = "Casino back office"
admin.site.index_title = "Venues, rulesets and the floor"

urlpatterns = [
    path("", RedirectView.as_view(url="/console/", permanent=False)),
    path("favicon.ico", favicon, name="favicon"),
    path("console/", include("casino.console.urls")),
    path("reports/", include("casino.reports.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            redirect_authenticated_user=True, authentication_form=LockoutAuthenticationForm
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("admin/", admin.site.urls),
    path("api/schema/", docs.SchemaView.as_view(), name="schema"),
    path("api/docs/", docs.swagger, name="api-docs"),
    path("api/v1/", include("casino.api.urls")),
]

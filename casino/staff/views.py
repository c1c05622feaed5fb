"""The second factor's pages, after the password: enrolment (a QR code, its secret as text
and a first code), the recovery codes shown once, and the code asked at every later login.
Each parses the form, calls one service of ``casino.staff.second_factor`` and renders."""

from __future__ import annotations

from urllib.parse import urlencode

import segno
from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_otp import login as otp_login

from casino.staff.policy import Capability, declare, needs_second_factor
from casino.staff.second_factor import (
    has_second_factor,
    second_factor_enrol_confirm,
    second_factor_enrol_start,
    second_factor_verify,
    secret_text,
)
from casino.staff.throttling import LoginRefusal, refusal_message

#: Where the recovery codes wait in the session between enrolment and their page.
RECOVERY_SESSION_KEY = "second_factor_recovery_codes"


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"), max_length=32, strip=True, widget=forms.TextInput()
    )


def _next(request: HttpRequest) -> str:
    """Where to go once verified: the ``next`` asked for, if it is on this site."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return "/"


def _checked(request: HttpRequest, check) -> tuple[object, str | None]:
    """``check(refusal)``'s answer, or None with what to tell the person."""
    refusal = LoginRefusal()
    try:
        answer = check(refusal)
    except PermissionDenied:
        return None, refusal_message(refusal)
    if answer is None:
        return None, _("Wrong code. Type the six digits your app shows now, or a recovery code.")
    return answer, None


@declare(Capability.SIGNED_IN)
@login_required
def second_factor_enrol(request: HttpRequest) -> HttpResponse:
    """The first login of one who needs a second factor: scan the QR code (or type its
    secret), give the first code the app shows."""
    user = request.user
    if not needs_second_factor(user) or has_second_factor(user):
        return HttpResponseRedirect(_next(request))
    device = second_factor_enrol_start(user=user)
    form = CodeForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        codes, error = _checked(
            request,
            lambda refusal: second_factor_enrol_confirm(
                request=request,
                user=user,
                device=device,
                code=form.cleaned_data["code"],
                refusal=refusal,
            ),
        )
        if codes is not None:
            otp_login(request, device)
            request.session[RECOVERY_SESSION_KEY] = codes
            target = reverse("second-factor-recovery-codes")
            return HttpResponseRedirect(f"{target}?{urlencode({'next': _next(request)})}")
    qr = segno.make(device.config_url, error="m")
    context = {
        "form": form,
        "error": error,
        "qr_svg": qr.svg_inline(scale=4, title=_("QR code of your authenticator's secret")),
        "secret": secret_text(device),
        "next": _next(request),
    }
    return render(request, "registration/second_factor_enrol.html", context)


@declare(Capability.SIGNED_IN)
@login_required
def second_factor_recovery_codes(request: HttpRequest) -> HttpResponse:
    """The ten recovery codes, shown once, right after enrolment."""
    codes = request.session.pop(RECOVERY_SESSION_KEY, None)
    if not codes:
        return HttpResponseRedirect(_next(request))
    context = {"codes": codes, "next": _next(request)}
    return render(request, "registration/second_factor_recovery_codes.html", context)


@declare(Capability.SIGNED_IN)
@login_required
def second_factor_check(request: HttpRequest) -> HttpResponse:
    """The code asked after the password: the app's six digits or a recovery code."""
    user = request.user
    if not needs_second_factor(user) or user.is_verified():
        return HttpResponseRedirect(_next(request))
    if not has_second_factor(user):
        target = reverse("second-factor-enrol")
        return HttpResponseRedirect(f"{target}?{urlencode({'next': _next(request)})}")
    form = CodeForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        device, error = _checked(
            request,
            lambda refusal: second_factor_verify(
                request=request, user=user, code=form.cleaned_data["code"], refusal=refusal
            ),
        )
        if device is not None:
            otp_login(request, device)
            return HttpResponseRedirect(_next(request))
    context = {"form": form, "error": error, "next": _next(request)}
    return render(request, "registration/second_factor_verify.html", context)

from django.apps import AppConfig


class NiuniuConfig(AppConfig):
    name = "niuniu"
    verbose_name = "Niu Niu"

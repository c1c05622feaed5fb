from django.apps import AppConfig


class MaubinhConfig(AppConfig):
    name = "maubinh"
    verbose_name = "Mau Binh"

"""The readings of the sheets a version may take: where each special hand ranks, the bet a
deposit counts from, the most boxes a round deals to. Every existing version gets the reading
it was settled with until now (history is never re-evaluated)."""

import django.core.validators
from django.db import migrations, models


#: The readings every version had before they were settings (niuniu.models.READING_DEFAULTS
#: as it was written then; a migration never imports the models).
TODAYS_READINGS = {
    "double_deposit_basis": "double",
    "super_deposit_basis": "super",
    "five_small_rank": "above",
    "four_of_a_kind_rank": "above",
    "five_face_rank": "above",
    "max_boxes": 5,
}


def todays_readings(apps, schema_editor):
    versions = apps.get_model("niuniu", "NiuNiuRulesetVersion")
    versions.objects.update(**TODAYS_READINGS)


class Migration(migrations.Migration):

    dependencies = [
        ('niuniu', '0005_version_approval'),
    ]

    operations = [
        migrations.AddField(
            model_name='niuniurulesetversion',
            name='double_deposit_basis',
            field=models.CharField(choices=[('single', 'Single / Even'), ('double', 'Double'), ('super', 'Super')], default='double', help_text='The bet whose stake the deposit multiple applies to. Sheets 000 and 004 say the Super deposit is "gấp 10 lần cược Đôi" / "더블 베팅액의 10배" / "10 times the Double Bet"; sheet 001 says "100,00 na opção SUPER NIU ... no mínimo 1000,00", ten times the Super stake itself, as the presets take it.', max_length=8, verbose_name='Double deposit counted from'),
        ),
        migrations.AddField(
            model_name='niuniurulesetversion',
            name='five_face_rank',
            field=models.CharField(choices=[('above', 'Above Niu Niu'), ('level', 'Level with Niu Niu (the high card decides)')], default='above', help_text='Sheet 001 prints one row "Niu (0) & Super NIU NIU" (Niu and Super Niu Niu together): level with Niu Niu, the high card deciding between them, as any two hands of one rank ("Jogador/Dealer com o mesmo total - A mão é classificada de acordo com o naipe", a player and dealer with the same total are ranked by suit). Above Niu Niu: the special hand beats every Niu Niu, as the presets play it.', max_length=8, verbose_name='Five Face ranks'),
        ),
        migrations.AddField(
            model_name='niuniurulesetversion',
            name='five_small_rank',
            field=models.CharField(choices=[('above', 'Above Niu Niu'), ('level', 'Level with Niu Niu (the high card decides)')], default='above', help_text='Sheet 001 prints one row "Niu (0) & Super NIU NIU" (Niu and Super Niu Niu together): level with Niu Niu, the high card deciding between them, as any two hands of one rank ("Jogador/Dealer com o mesmo total - A mão é classificada de acordo com o naipe", a player and dealer with the same total are ranked by suit). Above Niu Niu: the special hand beats every Niu Niu, as the presets play it.', max_length=8, verbose_name='Five Small ranks'),
        ),
        migrations.AddField(
            model_name='niuniurulesetversion',
            name='four_of_a_kind_rank',
            field=models.CharField(choices=[('above', 'Above Niu Niu'), ('level', 'Level with Niu Niu (the high card decides)')], default='above', help_text='Sheet 001 prints one row "Niu (0) & Super NIU NIU" (Niu and Super Niu Niu together): level with Niu Niu, the high card deciding between them, as any two hands of one rank ("Jogador/Dealer com o mesmo total - A mão é classificada de acordo com o naipe", a player and dealer with the same total are ranked by suit). Above Niu Niu: the special hand beats every Niu Niu, as the presets play it.', max_length=8, verbose_name='Four of a Kind ranks'),
        ),
        migrations.AddField(
            model_name='niuniurulesetversion',
            name='max_boxes',
            field=models.PositiveSmallIntegerField(default=5, help_text='The most player boxes a round deals to besides the dealer, 1 to 5: "từ 2 đến 6 người, bao gồm nhà cái" / "딜러(하우스) 및 다른 플레이어를 포함하여 2명에서 6명" / "2 to 6 players, including a dealer" (sheets 000 and 004).', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)], verbose_name='player boxes'),
        ),
        migrations.AddField(
            model_name='niuniurulesetversion',
            name='super_deposit_basis',
            field=models.CharField(choices=[('single', 'Single / Even'), ('double', 'Double'), ('super', 'Super')], default='super', help_text='The bet whose stake the deposit multiple applies to. Sheets 000 and 004 say the Super deposit is "gấp 10 lần cược Đôi" / "더블 베팅액의 10배" / "10 times the Double Bet"; sheet 001 says "100,00 na opção SUPER NIU ... no mínimo 1000,00", ten times the Super stake itself, as the presets take it.', max_length=8, verbose_name='Super deposit counted from'),
        ),
        migrations.RunPython(todays_readings, migrations.RunPython.noop),
    ]

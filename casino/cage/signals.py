"""What the cage's writers tell the apps above the cage, which the cage does not know: sent
inside the writer's transaction and received synchronously, so what a receiver writes
commits or rolls back with the cage's write.

``cage_count_imbalance`` (with ``count``: the signed ``CageCount`` whose difference was
posted against over/short): sent by ``cage_count_sign`` (``casino.cage.services.inventory``);
integrity opens an investigation of it (``casino.integrity.receivers``).
"""

from django.dispatch import Signal

cage_count_imbalance = Signal()

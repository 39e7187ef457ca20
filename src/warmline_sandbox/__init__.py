"""A complete reference server of the Sales Intelligence Service interface.

It exists so that the cockpit can be run (`warmline demo`), developed and tested with no
account and no internet. It is written from the spec independently of the cockpit's
client models, so that a contract test between the two can catch a misreading.
"""

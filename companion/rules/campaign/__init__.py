"""The board game's campaign (rules.md section 6, notation.md section 4).

Modules: ``record`` (the campaign record in and out), ``track`` (the advancement
track), ``titles`` (score to title and crosses), ``unlocks`` (the editable content:
what each box and achievement changes), ``state`` (the campaign sheet, spending,
setup reminders), ``mill`` (the Great Mill check), ``stats`` (history numbers).
"""

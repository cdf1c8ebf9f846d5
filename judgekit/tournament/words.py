"""The tournament's stored words as people read them (no Flask here).

A table's state, a round's status, a standings row's status, a penalty record's status and
a result's kind are stored and compared as they are ("in-progress", "closed", "dropped",
"in force", "override"); the pages show them through the reader's catalog with the stored
value as the catalog id (`{{ _(tb.state) }}`), so the stored values never change with the
language. The table states (`store.base.STATES`) and a penalty record's statuses
(`penalties.records.STATUS_*`) are marked where they are defined; the words below are
written as literals where they are stored, so this module names them for the catalog (`N_`).
"""
from __future__ import annotations

from judgekit.i18n import N_

ROUND_STATUSES = (N_("open"), N_("closed"))
STANDING_STATUSES = (N_("active"), N_("dropped"), N_("disqualified"), N_("not ranked"))
RESULT_KINDS = (N_("entered"), N_("override"), N_("correction"), N_("reported"))

"""The local guess of an activity's kind lives with the operations
(`warmline.ops.activity_type`: the `log_activity` spec derives it); re-exported here,
where the cockpit and the actions have always found it."""

from warmline.ops.activity_type import ACTIVITY_KINDS as ACTIVITY_KINDS
from warmline.ops.activity_type import ACTIVITY_NAMES as ACTIVITY_NAMES
from warmline.ops.activity_type import activity_name as activity_name
from warmline.ops.activity_type import guess_activity_type as guess_activity_type

"""Schemathesis hooks for scripts/api-fuzz.sh (SCHEMATHESIS_HOOKS=hooks).

A pull may wait up to 25 s for news (`wait=` on /sync/changes), and the
fuzzing account rarely has any: every generated wait is cut to one
second, so the run tries the waiting path without sitting through it.
Waits the spec does not allow (below 0, above 25) are sent as drawn, to
be refused with 400.
"""
import schemathesis


@schemathesis.hook
def map_query(context, query):
    if query and isinstance(query.get("wait"), int) and 1 < query["wait"] <= 25:
        query["wait"] = 1
    return query

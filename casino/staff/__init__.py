"""Staff: who works where and what they may do (roles, the policy of capabilities), how
they sign in (logins and their lockout, API tokens, console PINs).

A Django app of its own inside the project package (``docs/ARCHITECTURE.md`` "Apps").
"""

"""Who may do what: sign-in codes, API tokens, roles (`roles.py` is the table).

`codes`, `roles` and `store` are pure (no Flask); `views` is the web part: the sign-in
pages, the token API, and the `require_role` / `requires` helpers other views call.
"""

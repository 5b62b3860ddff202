"""What the five notes define: the conventions (bias, tie rule, update, rate), the bounds they
prove, and the claims each proof relies on at every update.
May import `data` and `errors` only."""

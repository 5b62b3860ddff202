"""The checker: replays a run's updates from the data and confirms, exactly, every claim of
`notes` at each one; and the recorder that writes updates out as they come.
May import `data`, `notes` and `errors`, never `run`: it does not trust the engine."""

"""The engines that make perceptron runs: the Fraction reference beside the notes, the fast
integer engine, its optional C kernel, the cycle watch and the mistake-counting sweeps.
May import `data`, `notes` and `errors`; nothing downstream (the checker, certificates, reports)."""

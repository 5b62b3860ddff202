"""`python -m verify_perceptron.proofs [DIRECTORY]`: regenerate the repository's proofs/ documents."""

import sys

from .catalog import _main

_main(sys.argv[1:])

"""``python -m verify_perceptron`` is the ``verify-perceptron`` command."""

from .cli import run

if __name__ == "__main__":
    run()

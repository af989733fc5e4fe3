"""``python -m deckcli`` entry point."""

from deckcli.cli import main

main()

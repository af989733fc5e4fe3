"""deckcli: deck builder, format validator and goldfish simulator for elemental TCGs."""

__version__ = "0.1.0"

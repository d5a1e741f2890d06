"""The Flask app: scoreboard, scorekeeper pages and JSON API."""

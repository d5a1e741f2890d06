"""The table device: button-and-LED panel, camera capture, the application service and the CLI."""

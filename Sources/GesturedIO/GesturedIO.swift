// GesturedIO: see docs/ARCHITECTURE.md

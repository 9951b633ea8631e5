// GesturedConfig: see docs/ARCHITECTURE.md

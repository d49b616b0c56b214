// Placeholder until the phone plugin lands.

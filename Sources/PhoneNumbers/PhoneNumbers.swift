// Placeholder until the phone engine lands.

print("placeholder until the phone engine lands")

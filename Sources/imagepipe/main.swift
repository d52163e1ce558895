print("imagepipe: not yet implemented")

print("synclab")

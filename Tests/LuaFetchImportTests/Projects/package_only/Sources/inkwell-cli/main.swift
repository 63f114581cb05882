print("inkwell")

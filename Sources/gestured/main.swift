// Placeholder so the target builds; replaced by the executable.
print("gestured")

print("fmtbench: not yet built")

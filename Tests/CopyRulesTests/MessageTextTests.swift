import CopyRules

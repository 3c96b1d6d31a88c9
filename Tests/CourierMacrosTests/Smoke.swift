import MacroTesting
import Testing

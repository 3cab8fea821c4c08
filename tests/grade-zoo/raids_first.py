"""student.py with RAIDS_FIRST set: see its comment there."""
import student

student.RAIDS_FIRST = True
student.main()

"""student.py with ROOT_GE set: see its comment there."""
import student

student.ROOT_GE = True
student.main()

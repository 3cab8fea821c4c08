"""student.py with LEAF_FOR_MOVER set: see its comment there."""
import student

student.LEAF_FOR_MOVER = True
student.main()

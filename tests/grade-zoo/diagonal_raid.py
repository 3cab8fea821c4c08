"""student.py with DIAGONAL_RAID set: see its comment there."""
import student

student.DIAGONAL_RAID = True
student.main()
